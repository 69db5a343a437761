// The lobby: every game, a form to open a table, tables in play and finished games.
import { clear, getJSON, h } from "./ui.js";

const state = { games: [], aiLevels: [] };

function gameInfo(name) {
  return state.games.find((g) => g.name === name);
}

function showError(message) {
  const el = document.getElementById("lobby-error");
  el.textContent = message;
  el.hidden = !message;
}

function renderGames() {
  const select = document.getElementById("game");
  clear(select);
  for (const g of state.games) select.appendChild(h("option", { value: g.name }, g.title || g.name));
  const cards = clear(document.getElementById("games"));
  for (const g of state.games) {
    const seats = g.min_players === g.max_players ? `${g.min_players} seats` : `${g.min_players}-${g.max_players} seats`;
    cards.appendChild(h("article", { class: "game-card", dataset: { game: g.name } },
      h("h3", {}, g.title || g.name),
      h("p", { class: "seats-count" }, seats),
      h("p", {}, g.description || ""),
      h("button", { type: "button", onclick: () => { select.value = g.name; onGameChange(); select.focus(); } }, "Set up a table")));
  }
  onGameChange();
}

function onGameChange() {
  const g = gameInfo(document.getElementById("game").value);
  if (!g) return;
  document.getElementById("game-description").textContent = g.description || "";
  const count = clear(document.getElementById("num-players"));
  for (let n = g.min_players; n <= g.max_players; n++) count.appendChild(h("option", { value: n }, String(n)));
  count.value = String(g.default_players || g.min_players);
  renderSeats();
  renderOptions(g);
}

// A seat count can have its own default (Rumblebots' head start at two seats, Stak Bots' Drone at
// one): what an option left alone will be at the chosen count.
function defaultFor(opt) {
  const n = document.getElementById("num-players").value;
  const by = opt.default_by_players || {};
  return Object.prototype.hasOwnProperty.call(by, n) ? by[n] : opt.default;
}

function shownDefault(opt) {
  const value = defaultFor(opt);
  return Array.isArray(value) ? value.join(",") : String(value ?? "");
}

// The seat count changed: show each seat-dependent option's default there, without touching a
// value the person has set.
function onCountChange() {
  renderSeats();
  const g = gameInfo(document.getElementById("game").value);
  if (!g) return;
  for (const opt of g.options) {
    if (!Object.keys(opt.default_by_players || {}).length) continue;
    const input = document.querySelector(`.option-input[data-option="${opt.name}"]`);
    if (!input || input.dataset.touched) continue;
    if (input.type === "checkbox") input.checked = Boolean(defaultFor(opt));
    else if (input.tagName === "SELECT") input.value = String(defaultFor(opt));
    else input.placeholder = shownDefault(opt);
  }
  const rules = g.options.find((o) => o.presets && Object.keys(o.presets).length);
  const chosen = rules && document.querySelector(`.option-input[data-option="${rules.name}"]`);
  if (chosen) showPreset(g, rules, chosen.value);
}

function renderSeats() {
  const n = Number(document.getElementById("num-players").value);
  const list = document.getElementById("seat-list");
  const previous = [...list.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    ai: row.querySelector(".seat-ai").value,
    name: row.querySelector(".seat-name").value,
  }));
  for (const row of list.querySelectorAll(".seat-row")) row.remove();
  for (let i = 0; i < n; i++) {
    const prev = previous[i] || { kind: i === 0 ? "human" : "ai", ai: "medium", name: "" };
    const kind = h("select", { class: "seat-kind", name: `seat-${i}-kind`, "aria-label": `Seat ${i + 1} kind` },
      h("option", { value: "human" }, "Person"), h("option", { value: "ai" }, "AI"),
      h("option", { value: "open" }, "Open seat (anyone may take it from the lobby)"));
    kind.value = prev.kind;
    const ai = h("select", { class: "seat-ai", name: `seat-${i}-ai`, "aria-label": `Seat ${i + 1} AI strength` },
      state.aiLevels.map((l) => h("option", { value: l.spec }, l.label)));
    ai.value = prev.ai || "medium";
    const name = h("input", { class: "seat-name", name: `seat-${i}-name`, placeholder: "name (optional)", maxlength: 40, value: prev.name });
    const sync = () => { ai.hidden = kind.value !== "ai"; };
    kind.addEventListener("change", sync);
    sync();
    list.appendChild(h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, `Seat ${i + 1}`), kind, ai, name));
  }
}

const UPLOAD = "__upload__";
const MAX_INLINE = 65536; // characters of one uploaded content file (the server's limit)

// A content option (a card set, a deck) is chosen from the bundled ones or uploaded from this
// computer: the file's text is sent inline. The server never reads a file of its own for it.
function contentInput(opt, base) {
  const select = h("select", base,
    h("option", { value: "" }, opt.default ? `${opt.default} (default)` : "bundled (default)"),
    (opt.bundled || []).filter((name) => name !== opt.default).map((name) => h("option", { value: name }, name)),
    h("option", { value: UPLOAD }, `your own ${opt.content} file…`));
  const file = h("input", { type: "file", class: "option-file", hidden: true, "aria-label": `${opt.name}: your own ${opt.content} file` });
  select.addEventListener("change", () => {
    file.hidden = select.value !== UPLOAD;
    if (!file.hidden) file.click();
  });
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    select.dataset.inline = chosen ? await chosen.text() : "";
    select.dataset.fileName = chosen ? chosen.name : "";
  });
  return h("span", { class: "option-content" }, select, file);
}

function renderOptions(g) {
  const box = document.getElementById("options");
  for (const el of box.querySelectorAll(".option")) el.remove();
  box.hidden = g.options.length === 0;
  for (const opt of g.options) {
    let input;
    const base = { class: "option-input", name: `option-${opt.name}`, dataset: { option: opt.name, type: opt.type, content: opt.content || "" } };
    if (opt.content) {
      input = contentInput(opt, base);
    } else if (opt.choices && opt.choices.length) {
      // A choice's words where the game gives them: the rules switch reads "balanced
      // (recommended)" and "as printed".
      const label = (c) => (opt.labels && opt.labels[String(c)]) || String(c);
      input = h("select", base, opt.choices.map((c) => h("option", { value: String(c) }, label(c))));
      input.value = String(defaultFor(opt));
    } else if (opt.type === "bool") {
      input = h("input", { ...base, type: "checkbox" });
      input.checked = Boolean(defaultFor(opt));
    } else if (opt.type === "int" || opt.type === "float") {
      input = h("input", { ...base, type: "number", step: opt.type === "int" ? "1" : "any", placeholder: shownDefault(opt) });
    } else {
      input = h("input", { ...base, type: "text", placeholder: shownDefault(opt) });
    }
    input.addEventListener("change", () => { input.dataset.touched = "1"; });
    if (opt.presets && Object.keys(opt.presets).length) input.addEventListener("change", () => showPreset(g, opt, input.value));
    // A content option's own help speaks of file paths, which the web table does not open.
    const help = opt.content ? `A bundled ${opt.content}, or your own ${opt.content} file uploaded from this device.` : opt.help || "";
    box.appendChild(h("label", { class: "option", title: help }, h("span", {}, opt.name.replace(/_/g, " ")), input,
      h("small", { class: "muted" }, help)));
  }
}

// The rules switch chosen: each option it sets that the person has not touched shows the value
// it will have (the server applies the preset; an option set by hand wins).
function showPreset(g, switchOpt, choice) {
  const preset = switchOpt.presets[choice] || {};
  for (const opt of g.options) {
    const input = document.querySelector(`.option-input[data-option="${opt.name}"]`);
    if (!input || input.dataset.touched || opt === switchOpt || opt.content) continue;
    const value = Object.prototype.hasOwnProperty.call(preset, opt.name) ? preset[opt.name] : defaultFor(opt);
    const shownValue = Array.isArray(value) ? value.join(",") : String(value ?? "");
    if (input.type === "checkbox") input.checked = Boolean(value);
    else if (input.tagName === "SELECT") input.value = String(value);
    else input.placeholder = shownValue;
  }
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll(".option-input")) {
    const { option, type, content } = input.dataset;
    // An option left alone is left to the server: its default, or what the rules switch sets.
    if (!content && !input.dataset.touched) continue;
    if (content) {
      if (input.value === UPLOAD) {
        const text = input.dataset.inline || "";
        if (!text) throw new Error(`${option}: choose your ${content} file, or pick a bundled one`);
        if (text.length > MAX_INLINE) throw new Error(`${option}: ${input.dataset.fileName} is over ${MAX_INLINE} characters`);
        options[option] = `inline:${text}`;
      } else if (input.value) options[option] = input.value;
    } else if (type === "bool") options[option] = input.checked;
    else if (input.tagName === "SELECT") {
      const raw = input.value;
      options[option] = type === "int" ? Number.parseInt(raw, 10) : type === "float" ? Number.parseFloat(raw) : raw;
    } else if (input.value.trim() !== "") {
      const raw = input.value.trim();
      if (type === "int") options[option] = Number.parseInt(raw, 10);
      else if (type === "float") options[option] = Number.parseFloat(raw);
      else options[option] = raw;
    }
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  showError("");
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const chosen = row.querySelector(".seat-kind").value;
    const kind = chosen === "open" ? "human" : chosen;
    const seat = { kind };
    if (chosen === "open") seat.open = true;
    const name = row.querySelector(".seat-name").value.trim();
    if (name) seat.name = name;
    if (kind === "ai") seat.ai = row.querySelector(".seat-ai").value;
    return seat;
  });
  let options;
  try {
    options = readOptions();
  } catch (err) {
    showError(err.message);
    return;
  }
  const body = {
    game: document.getElementById("game").value,
    num_players: Number(document.getElementById("num-players").value),
    options,
    seats,
  };
  const clock = document.getElementById("clock").value;
  if (clock) {
    const [mode, seconds] = clock.split(":");
    body.clock = { mode, seconds: Number(seconds) };
  }
  body.hints = document.getElementById("hints").checked && !clock;
  const seed = document.getElementById("seed").value.trim();
  if (seed) body.seed = Number.parseInt(seed, 10);
  try {
    const created = await getJSON("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    showCreated(created);
    refreshTables();
  } catch (err) {
    showError(err.message);
  }
}

function showCreated(created) {
  const box = clear(document.getElementById("created"));
  box.hidden = false;
  const humans = created.seats.filter((s) => s.join_url);
  box.appendChild(h("h3", {}, "Table ready"));
  if (humans.length === 0) {
    box.appendChild(h("p", {}, h("a", { class: "button", id: "open-table", href: created.url }, "Watch the AI play")));
    return;
  }
  box.appendChild(h("p", { class: "muted" }, "Each link holds one seat: keep yours, send the others to your friends. Anyone with the table link alone can watch."));
  const list = h("ul", { class: "join-links" });
  humans.forEach((s, i) => {
    const url = new URL(s.join_url, window.location.href).href;
    const copy = h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, "Copy");
    list.appendChild(h("li", {}, h("b", {}, h("bdi", {}, s.name), ` (seat ${s.seat + 1})`), " ",
      h("a", { href: s.join_url, class: i === 0 ? "button join-first" : "", id: i === 0 ? "open-table" : null }, i === 0 ? "Play this seat" : "Join link"),
      " ", h("input", { readonly: true, value: url, class: "link-field", "aria-label": `Seat ${s.seat + 1} link` }), " ", copy));
  });
  box.appendChild(list);
  const open = created.seats.filter((s) => s.open);
  if (open.length) box.appendChild(h("p", { class: "muted" }, `Open seats (${open.map((s) => s.seat + 1).join(", ")}): anyone can take them from "Tables in play" in the lobby.`));
  box.appendChild(h("p", {}, "Spectators: ", h("a", { href: created.url }, new URL(created.url, window.location.href).href)));
}

// Names as nodes, each isolated (<bdi>): a right-to-left name does not reorder the words around it.
function seatSummary(t) {
  return t.seats.flatMap((s, i) => [i ? " vs " : null, h("bdi", {}, s.name), s.kind === "ai" ? ` · ${aiLevel(s.ai)}` : null]);
}

// An AI seat's strength beside its name ("Ada · hard"): a named strength, or a spec's kind.
function aiLevel(spec) {
  return String(spec || "AI").split(":")[0];
}

function resultText(t) {
  if (!t.result) return "";
  const r = t.result.returns;
  const best = Math.max(...r);
  const winners = r.map((v, i) => [v, i]).filter(([v]) => v === best && v > 0).map(([, i]) => t.seats[i].name);
  if (winners.length === r.length || winners.length === 0) return "draw";
  return ["won by ", winners.flatMap((name, i) => [i ? " and " : null, h("bdi", {}, name)])];
}

async function claimSeat(tableId, seat) {
  showError("");
  const name = document.getElementById("join-name").value.trim();
  try {
    const claimed = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/claim`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(name ? { name } : {}),
    });
    window.location.assign(claimed.join_url);
  } catch (err) {
    showError(err.message);
    refreshTables();
  }
}

async function refreshTables() {
  try {
    const data = await getJSON("/api/tables");
    const titles = Object.fromEntries(state.games.map((g) => [g.name, g.title || g.name]));
    const fill = (id, rows, finished) => {
      const ul = clear(document.getElementById(id));
      if (rows.length === 0) ul.appendChild(h("li", { class: "muted" }, "none"));
      for (const t of rows) {
        ul.appendChild(h("li", {},
          h("b", {}, titles[t.game] || t.game), " · ", seatSummary(t), ` · ${t.step} moves `,
          t.seeded ? [h("span", { class: "seeded", title: "its creator chose the deal" }, "seeded"), " "] : null,
          finished ? h("span", { class: "result" }, resultText(t)) : null, " ",
          h("a", { href: t.url }, finished ? "view" : "watch"),
          finished ? null : t.seats.map((s, i) => (s.open ? [" ", h("button", {
            type: "button", class: "small-button join-open", dataset: { table: t.id, seat: i + 1 },
            onclick: () => claimSeat(t.id, i + 1),
          }, `Take seat ${i + 1}`)] : null)),
          finished ? [" ", h("a", { href: t.record_url, download: true }, "record")] : null));
      }
    };
    fill("playing", data.playing, false);
    fill("finished", data.finished, true);
  } catch (err) {
    showError(`could not list tables: ${err.message}`);
  }
}

async function start() {
  try {
    const data = await getJSON("/api/games");
    state.games = data.games;
    state.aiLevels = data.ai_levels;
  } catch (err) {
    showError(`could not load the games: ${err.message}`);
    return;
  }
  renderGames();
  document.getElementById("game").addEventListener("change", onGameChange);
  document.getElementById("num-players").addEventListener("change", onCountChange);
  document.getElementById("create").addEventListener("submit", createTable);
  document.body.dataset.ready = "true";
  await refreshTables();
  setInterval(refreshTables, 5000);
}

start();
