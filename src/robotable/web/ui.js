// Small DOM helpers shared by the lobby, the play shell and the game drawing modules.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function humanize(key) {
  return String(key).replace(/_/g, " ").replace(/\b\w/, (c) => c.toUpperCase());
}

export async function getJSON(url, options = {}) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    const message = body && body.error ? body.error : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return body;
}

// Field names that hold a card's words rather than its numbers.
const TEXT_KEYS = ["text", "ability", "abilities", "effect", "entry_effect", "rules", "description"];
const NAME_KEYS = ["name", "title", "card"];
const SKIP_KEYS = new Set(["id", "uid", "instance", "face_up", "hidden", "owner", "controller"]);

// A card drawn from whatever a view says about it: name on top, numbers as badges, text below.
// `card` may be a string (a name), null/"hidden" (a face-down card) or an object.
export function drawCard(card, opts = {}) {
  const classes = ["card"];
  if (opts.small) classes.push("small");
  if (opts.extraClass) classes.push(opts.extraClass);
  if (card === null || card === undefined || card === "hidden" || (typeof card === "object" && card.hidden)) {
    classes.push("face-down");
    return h("div", { class: classes.join(" "), title: opts.title || "face-down card" },
      h("div", { class: "card-back" }, opts.backLabel || ""));
  }
  if (typeof card !== "object") {
    return h("div", { class: classes.join(" ") }, h("div", { class: "card-name" }, String(card)));
  }
  const name = NAME_KEYS.map((k) => card[k]).find((v) => typeof v === "string") || "card";
  const stats = [];
  const texts = [];
  const tags = [];
  for (const [key, value] of Object.entries(card)) {
    if (NAME_KEYS.includes(key) || SKIP_KEYS.has(key)) continue;
    if (TEXT_KEYS.includes(key)) {
      if (Array.isArray(value)) texts.push(...value.map(String));
      else if (value) texts.push(String(value));
    } else if (typeof value === "number") {
      stats.push(h("span", { class: "stat", title: humanize(key) }, h("b", {}, String(value)), " ", shortKey(key)));
    } else if (typeof value === "boolean") {
      if (value) tags.push(humanize(key));
    } else if (typeof value === "string") {
      tags.push(`${humanize(key)}: ${value}`);
    } else if (Array.isArray(value) && value.every((v) => typeof v !== "object")) {
      if (value.length) tags.push(`${humanize(key)}: ${value.join(", ")}`);
    }
  }
  if (card.face_up === false) classes.push("known-face-down");
  const numbers = stats.map((s) => s.title && `${s.title} ${s.querySelector("b").textContent}`);
  const full = [name, numbers.filter(Boolean).join(", "), tags.join(", "), texts.join(" ")].filter(Boolean).join(". ");
  const el = h("div", { class: classes.join(" "), title: texts.join("\n") || name, "aria-label": full, tabindex: "0", role: "group" },
    h("div", { class: "card-name" }, name),
    stats.length ? h("div", { class: "card-stats" }, stats) : null,
    tags.length ? h("div", { class: "card-tags" }, tags.join(" · ")) : null,
    texts.length ? h("div", { class: "card-text" }, texts.join(" ")) : null);
  // Tapping or pressing Enter on a card that is not a choice shows its full text (a phone has
  // no hover); on a card that is a choice, the click takes the choice instead.
  const explain = (e) => {
    if (el.classList.contains("actionable")) return;
    e.stopPropagation();
    showDetail(full);
  };
  el.addEventListener("click", explain);
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); explain(e); } });
  return el;
}

// The full text of a card or term, in a box at the bottom of the page until dismissed (Close or
// Escape; focus goes back to what opened it). `picture` is an optional node (the card's art).
export function showDetail(text, heading = null, picture = null) {
  let box = document.getElementById("detail");
  if (!box) {
    box = h("div", { id: "detail", class: "detail", role: "dialog", "aria-live": "polite", "aria-label": "Card details", tabindex: "-1" });
    box.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); box.close(); } });
    box.close = () => {
      box.hidden = true;
      if (box.opener && box.opener.isConnected) box.opener.focus();
    };
    document.body.appendChild(box);
  }
  box.opener = document.activeElement;
  clear(box);
  const close = h("button", { type: "button", class: "small-button", "aria-label": "Close" }, "Close");
  close.addEventListener("click", () => box.close());
  if (picture) box.appendChild(h("div", { class: "detail-art" }, picture));
  const words = h("div", { class: "detail-words" });
  if (heading) words.appendChild(h("h2", {}, heading));
  words.appendChild(h("p", {}, text));
  words.appendChild(close);
  box.appendChild(words);
  box.hidden = false;
  close.focus();
}

// Make any element a keyboard- and screen-reader-usable control: Enter or Space presses it.
export function pressable(el, onPress, label) {
  el.setAttribute("role", "button");
  el.setAttribute("tabindex", "0");
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", (e) => { e.stopPropagation(); onPress(e); });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onPress(e); }
  });
  return el;
}

function shortKey(key) {
  const short = { power: "pow", strength: "str", defense: "def", attack: "atk", cost: "cost", value: "val" };
  return short[key] || humanize(key).toLowerCase();
}

// Value rendering for the generic fallback and for unknown keys inside a game's own drawing.
export function drawValue(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value !== "object") return h("span", { class: "scalar" }, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "scalar" }, value.map((v) => (v === null ? "?" : String(v))).join(", "));
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v) && NAME_KEYS.some((k) => typeof v[k] === "string"))) {
      return h("div", { class: "card-row" }, value.map((v) => drawCard(v, { small: depth > 1 })));
    }
    return h("ol", { class: "value-list" }, value.map((v) => h("li", {}, drawValue(v, depth + 1))));
  }
  if (NAME_KEYS.some((k) => typeof value[k] === "string") && depth > 0) return drawCard(value);
  return h("dl", { class: "value-map" },
    Object.entries(value).map(([k, v]) => [h("dt", {}, humanize(k)), h("dd", {}, drawValue(v, depth + 1))]));
}
