// @ts-check
// The form of a game (Teeko's forms of Scarne's book): a control for each of the game's options,
// built from /api/games' `options` (name, default, allowed values or a pattern, labels, help),
// and the game spec they make ("teeko:goals=advanced,drops=aaaa"), shown in a field that someone
// who knows specs can also type into.  Which values are legal is the server's say: the page
// offers what it lists and sends the spec as written.
import { $, el } from "./dom.js";
import { differences, parseSpec } from "./spec.js";

export class FormPicker {
  constructor(onChange) {
    this.onChange = onChange;  // (spec) => void, after a control or the spec field changes
    this.info = null;
    $("game-spec").addEventListener("input", () => { this.parse(); this.onChange(this.spec()); });
  }

  // Draw the controls of a game's options (hidden for a game without any), set to `spec`.
  setGame(info, spec) {
    this.info = info;
    const options = info.options || [];
    $("form-picker").hidden = options.length === 0;
    $("form-options").replaceChildren(...options.map((option) => this.control(option)));
    $("game-spec").value = spec && parseSpec(spec).name === info.name ? spec : info.spec;
    this.parse();
  }

  control(option) {
    const labels = option.labels || {};
    const text = (v) => (labels[v] ? `${labels[v]} (${v})` : v) + (v === option.default && !labels[v] ? " · default" : "");
    const select = el("select", { id: `form-opt-${option.name}`, "data-form-option": option.name },
      ...option.values.map((v) => el("option", { value: v, text: text(v) })));
    select.addEventListener("change", () => {
      if (select.value !== "" && free) free.value = select.value;
      this.build();
    });
    let free = null;
    if (option.pattern) {
      // Any value the pattern allows, beside the named ones (e.g. drops "sasa").
      select.append(el("option", { value: "", text: "other (type it)" }));
      free = el("input", {
        id: `form-free-${option.name}`, "data-form-free": option.name, pattern: option.pattern, autocomplete: "off",
        spellcheck: "false", "aria-label": `${option.name}, as letters`, maxlength: 16, class: "free",
      });
      free.addEventListener("input", () => {
        select.value = option.values.includes(free.value.trim()) ? free.value.trim() : "";
        this.build();
      });
    }
    if (!free) return el("label", { class: "option", title: option.help }, el("span", { text: option.name }), select);
    return el("label", { class: "option wide", title: option.help }, el("span", { text: option.name }),
      el("span", { class: "pair" }, select, free));
  }

  value(option) {
    const select = $(`form-opt-${option.name}`);
    const free = $(`form-free-${option.name}`);
    if (free && select.value === "") return free.value.trim();
    return select.value;
  }

  // The controls -> the spec field.
  build() {
    const parts = [];
    for (const option of this.info.options || []) {
      const value = this.value(option);
      if (value !== "" && value !== option.default) parts.push(`${option.name}=${value}`);
    }
    $("game-spec").value = parts.length ? `${this.info.name}:${parts.join(",")}` : this.info.name;
    this.help();
    this.onChange(this.spec());
  }

  // The spec field -> the controls (the field itself is kept as typed; the server judges it).
  parse() {
    const { given } = parseSpec($("game-spec").value);
    for (const option of this.info.options || []) {
      const value = option.name in given ? given[option.name] : option.default;
      const select = $(`form-opt-${option.name}`);
      const free = $(`form-free-${option.name}`);
      select.value = option.values.includes(value) ? value : free ? "" : option.default;
      if (free) free.value = value;
    }
    this.help();
  }

  // What the chosen form changes, from the options' own help texts.
  help() {
    const changed = differences(this.spec(), this.info.options);
    $("form-help").textContent = changed.length
      ? changed.map(([option, value]) => `${option.name}=${value}: ${option.help}.`).join(" ")
      : `The standard form of ${this.info.name}.`;
  }

  spec() { return $("game-spec").value.trim() || (this.info ? this.info.name : ""); }
}
