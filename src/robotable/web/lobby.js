// The lobby: my games (the seats this browser holds), every game as a picture card with its
// guide, the new-table form (the rules first, then the players, the rest under More options),
// tables in play and finished games. Everything a person wrote is set as text in a <bdi>; the
// only markup inserted is the guide, which the server renders from the game's own Markdown.
import { clear, getJSON, h } from "./ui.js";
import { gamePicture } from "./lobby-art.js";

const state = { games: [], aiLevels: [], game: null, tables: { playing: [], finished: [] }, looked: new Map() };

// The seats this browser holds, written by the play page when a seat link is opened.
const MY_GAMES_KEY = "robotable-my-games";

function gameInfo(name) {
  return state.games.find((g) => g.name === name);
}

function titleOf(name) {
  const g = gameInfo(name);
  return (g && (g.title || g.name)) || name;
}

function showError(message) {
  const el = document.getElementById("lobby-error");
  el.textContent = message;
  el.hidden = !message;
}

// Help lines come from the games' option tables: said for people, without identifiers' underscores.
function plain(text) {
  const words = String(text || "").replace(/_/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

function playersText(g) {
  return g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players} to ${g.max_players} players`;
}

function minutesText(g) {
  const m = String(g.minutes || "").trim();
  if (!m) return "";
  return `${m.replace("-", " to ")} min`;
}

function picture(game) {
  try {
    return gamePicture(game);
  } catch (err) {
    console.warn("no picture for", game, err);
    return h("div", { class: "game-picture blank" });
  }
}

// -- the games ---------------------------------------------------------------------------------
function renderGames() {
  const cards = clear(document.getElementById("games"));
  for (const g of state.games) {
    const minutes = minutesText(g);
    const title = g.title || g.name;
    cards.appendChild(h("article", { class: "game-card", dataset: { game: g.name } },
      h("div", { class: "game-art" }, picture(g.name)),
      h("div", { class: "game-body" },
        h("h3", {}, title),
        h("p", { class: "game-facts" },
          h("span", { class: "seats-count" }, playersText(g)),
          minutes ? h("span", { class: "minutes" }, minutes) : null),
        h("p", { class: "game-line" }, g.description || "")),
      h("div", { class: "game-buttons" },
        h("button", { type: "button", class: "primary choose-game", onclick: () => chooseGame(g.name) }, "New table"),
        h("button", { type: "button", class: "secondary how-to-play", onclick: () => openGuide(g.name) }, "How to play"),
        (state.guided || []).includes(g.name)
          ? h("button", { type: "button", class: "secondary learn-to-play", title: "A first game against an easy robot, with a coach who shows what to do and why", onclick: (e) => learnToPlay(g.name, e.currentTarget) }, "Learn to play")
          : null)));
  }
}

// Learn to play (issue 79 point 7): a guided first game, its deal and easy robot set by the
// server from the game's coach script; the seat opens at once.
async function learnToPlay(name, button) {
  button.disabled = true;
  try {
    const created = await getJSON("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: name, guided: true }),
    });
    window.location.assign(created.seats[0].join_url);
  } catch (err) {
    showError(err.message);
    button.disabled = false;
  }
}

function chooseGame(name) {
  const g = gameInfo(name);
  if (!g) return;
  state.game = name;
  for (const card of document.querySelectorAll(".game-card")) card.classList.toggle("chosen", card.dataset.game === name);
  const panel = document.getElementById("new-table");
  panel.hidden = false;
  document.getElementById("created").hidden = true;
  document.getElementById("new-table-title").textContent = `New table: ${g.title || g.name}`;
  document.getElementById("game-description").textContent = [playersText(g), minutesText(g)].filter(Boolean).join(" · ");
  clear(document.getElementById("new-table-art")).appendChild(picture(name));
  document.getElementById("more-options").open = false;
  const count = clear(document.getElementById("num-players"));
  for (let n = g.min_players; n <= g.max_players; n++) count.appendChild(h("option", { value: n }, String(n)));
  count.value = String(g.default_players || g.min_players);
  renderRules(g);
  renderSeats();
  renderOptions(g);
  panel.scrollIntoView({ block: "start", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
}

// -- how to play ---------------------------------------------------------------------------------
async function openGuide(name) {
  const dialog = document.getElementById("guide");
  const body = clear(document.getElementById("guide-body"));
  document.getElementById("guide-title").textContent = `How to play ${titleOf(name)}`;
  body.appendChild(h("p", { class: "muted" }, "Loading the guide…"));
  if (!dialog.open) dialog.showModal();
  dialog.scrollTop = 0;
  try {
    const guide = await getJSON(`/api/games/${encodeURIComponent(name)}/guide`);
    // The one markup the lobby inserts: the server renders it from the game's own Markdown
    // with raw HTML turned off, and it carries no player's words.
    body.innerHTML = guide.html;
    body.dataset.game = name;
  } catch (err) {
    clear(body).appendChild(h("p", { class: "error" }, `The guide could not be loaded (${err.message}); try again.`));
  }
}

// -- the rules, first ----------------------------------------------------------------------------
function rulesOption(g) {
  return g.options.find((o) => o.name === "rules" && o.choices && o.choices.length);
}

function renderRules(g) {
  const box = clear(document.getElementById("rules-options"));
  const opt = rulesOption(g);
  document.getElementById("rules-choice").hidden = !opt;
  if (!opt) return;
  const label = (c) => (opt.labels && opt.labels[String(c)]) || plain(c);
  for (const choice of opt.choices) {
    const input = h("input", { type: "radio", name: "rules", value: String(choice), class: "rules-input" });
    input.checked = String(choice) === String(defaultFor(opt));
    input.addEventListener("change", () => {
      // Chosen by the person: sent, so the server applies that rule set's preset.
      box.dataset.touched = "1";
      showPreset(g, opt, choice);
    });
    // "balanced (recommended)": the name large, the note under it.
    const [main, note] = plain(label(choice)).split(/ \((.*)\)$/);
    box.appendChild(h("label", { class: "rules-card" }, input,
      h("span", { class: "rules-label" }, main, note ? h("small", {}, note) : null)));
  }
  delete box.dataset.touched;
  document.getElementById("rules-help").textContent = plain(opt.help);
}

function chosenRules() {
  const box = document.getElementById("rules-options");
  const checked = box.querySelector(".rules-input:checked");
  return box.dataset.touched && checked ? checked.value : null;
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
  const g = gameInfo(state.game);
  if (!g) return;
  for (const opt of g.options) {
    if (!Object.keys(opt.default_by_players || {}).length) continue;
    const input = document.querySelector(`.option-input[data-option="${opt.name}"]`);
    if (!input || input.dataset.touched) continue;
    if (input.type === "checkbox") input.checked = Boolean(defaultFor(opt));
    else if (input.tagName === "SELECT") input.value = String(defaultFor(opt));
    else input.placeholder = shownDefault(opt);
  }
  const rules = rulesOption(g);
  const checked = document.querySelector(".rules-input:checked");
  if (rules && checked) showPreset(g, rules, checked.value);
}

// -- the players ---------------------------------------------------------------------------------
function renderSeats() {
  const n = Number(document.getElementById("num-players").value);
  const list = document.getElementById("seat-list");
  const previous = [...list.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    ai: row.querySelector(".seat-ai").value,
    name: row.querySelector(".seat-name").value,
  }));
  for (const row of list.querySelectorAll(".seat-row")) row.remove();
  const levels = state.aiLevels.map((l) => l.spec);
  for (let i = 0; i < n; i++) {
    const prev = previous[i] || { kind: i === 0 ? "human" : "ai", ai: levels.includes("medium") ? "medium" : levels[0], name: "" };
    const kind = h("select", { class: "seat-kind", name: `seat-${i}-kind`, "aria-label": `Player ${i + 1}: who plays` },
      h("option", { value: "human" }, i === 0 ? "Me" : "A friend I send a link"),
      h("option", { value: "ai" }, "A robot (AI)"),
      h("option", { value: "open" }, "An open seat (anyone may sit)"));
    kind.value = prev.kind;
    const ai = h("select", { class: "seat-ai", name: `seat-${i}-ai`, "aria-label": `Player ${i + 1}: how strong the AI plays` },
      state.aiLevels.map((l) => h("option", { value: l.spec }, l.label)));
    if (prev.ai) ai.value = prev.ai;
    const name = h("input", { class: "seat-name", name: `seat-${i}-name`, maxlength: 40, value: prev.name, "aria-label": `Player ${i + 1}: name` });
    const sync = () => {
      ai.hidden = kind.value !== "ai";
      name.placeholder = kind.value === "ai" ? "a robot's name (optional)" : kind.value === "open" ? "taken by whoever sits" : i === 0 ? "your name (optional)" : "their name (optional)";
      name.disabled = kind.value === "open";
    };
    kind.addEventListener("change", sync);
    sync();
    list.appendChild(h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, `Player ${i + 1}`), kind, ai, name));
  }
}

// -- more options ----------------------------------------------------------------------------------
const UPLOAD = "__upload__";
const MAX_INLINE = 65536; // characters of one uploaded content file (the server's limit)

// A content option (a card set, a deck) is chosen from the bundled ones or uploaded from this
// device: the file's text is sent inline. The server never reads a file of its own for it.
function contentInput(opt, base) {
  const bundledName = (name) => plain(name);
  const select = h("select", base,
    h("option", { value: "" }, opt.default ? `${bundledName(opt.default)} (the usual)` : "the bundled one (the usual)"),
    (opt.bundled || []).filter((name) => name !== opt.default).map((name) => h("option", { value: name }, bundledName(name))),
    h("option", { value: UPLOAD }, `your own ${opt.content} file…`));
  const file = h("input", { type: "file", class: "option-file", hidden: true, "aria-label": `your own ${opt.content} file` });
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

// What a content option is for, in words: its help's first clause ("the first seat's deck"),
// without the file-format talk the web table has no use for.
function contentText(opt) {
  const head = String(opt.help || "").split(":")[0];
  const what = /file|toml|\(/i.test(head) || !head ? opt.content : head;
  return `${plain(what)}: the bundled one, or your own file from this device`;
}

function renderOptions(g) {
  const box = clear(document.getElementById("options"));
  for (const opt of g.options) {
    if (opt === rulesOption(g)) continue;
    let input;
    const base = { class: "option-input", name: `option-${opt.name}`, dataset: { option: opt.name, type: opt.type, content: opt.content || "" } };
    if (opt.content) {
      input = contentInput(opt, base);
    } else if (opt.choices && opt.choices.length) {
      const label = (c) => (opt.labels && opt.labels[String(c)]) || String(c).replace(/_/g, " ");
      input = h("select", base, opt.choices.map((c) => h("option", { value: String(c) }, label(c))));
      input.value = String(defaultFor(opt));
    } else if (opt.type === "bool") {
      input = h("input", { ...base, type: "checkbox" });
      input.checked = Boolean(defaultFor(opt));
    } else if (opt.type === "int" || opt.type === "float") {
      const range = { min: opt.minimum ?? null, max: opt.maximum ?? null };
      input = h("input", { ...base, ...range, type: "number", inputmode: opt.type === "int" ? "numeric" : "decimal", step: opt.type === "int" ? "1" : "any", placeholder: shownDefault(opt) });
    } else {
      input = h("input", { ...base, type: "text", placeholder: shownDefault(opt) });
    }
    const control = input.classList.contains("option-input") ? input : input.querySelector(".option-input");
    control.addEventListener("change", () => { control.dataset.touched = "1"; });
    const text = h("span", { class: "option-text" }, opt.content ? contentText(opt) : plain(opt.help) || plain(opt.name));
    box.appendChild(opt.type === "bool" && !opt.content
      ? h("label", { class: "option option-check" }, input, text)
      : h("label", { class: "option" }, text, input));
  }
}

// The rules chosen: each option its preset sets that the person has not touched shows the value
// it will have (the server applies the preset; an option set by hand wins).
function showPreset(g, switchOpt, choice) {
  const preset = (switchOpt.presets || {})[choice] || {};
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

// Only what the person touched is sent: an option left alone is left to the server (its default,
// or what the chosen rules set), so "as printed" is never overridden by a shown default.
function readOptions() {
  const options = {};
  const rules = chosenRules();
  if (rules !== null) options.rules = rules;
  for (const input of document.querySelectorAll(".option-input")) {
    const { option, type, content } = input.dataset;
    if (!content && !input.dataset.touched) continue;
    if (content) {
      if (input.value === UPLOAD) {
        const text = input.dataset.inline || "";
        if (!text) throw new Error(`Choose your ${content} file, or pick the bundled one.`);
        if (text.length > MAX_INLINE) throw new Error(`${input.dataset.fileName} is too long (over ${MAX_INLINE} characters).`);
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

// -- creating a table ----------------------------------------------------------------------------
async function createTable(event) {
  event.preventDefault();
  showError("");
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const chosen = row.querySelector(".seat-kind").value;
    const kind = chosen === "open" ? "human" : chosen;
    const seat = { kind };
    if (chosen === "open") seat.open = true;
    const name = row.querySelector(".seat-name").value.trim();
    if (name && chosen !== "open") seat.name = name;
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
  const body = { game: state.game, num_players: Number(document.getElementById("num-players").value), options, seats };
  const clock = document.getElementById("clock").value;
  if (clock) {
    const [mode, seconds] = clock.split(":");
    body.clock = { mode, seconds: Number(seconds) };
  }
  body.hints = document.getElementById("hints").checked && !clock;
  const seed = document.getElementById("seed").value.trim();
  if (seed) body.seed = Number.parseInt(seed, 10);
  const button = document.getElementById("create-button");
  button.disabled = true;
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
  } finally {
    button.disabled = false;
  }
}

function showCreated(created) {
  const box = clear(document.getElementById("created"));
  box.hidden = false;
  const humans = created.seats.filter((s) => s.join_url);
  box.appendChild(h("h3", {}, "Your table is ready"));
  if (humans.length === 0) {
    box.appendChild(h("p", {}, h("a", { class: "button primary", id: "open-table", href: created.url }, "Watch the robots play")));
    box.scrollIntoView({ block: "nearest" });
    return;
  }
  box.appendChild(h("p", { class: "muted" }, "Each link holds one seat: keep yours, send the others to your friends. Anyone with the table's own link can watch."));
  const list = h("ul", { class: "join-links" });
  humans.forEach((s, i) => {
    const url = new URL(s.join_url, window.location.href).href;
    const copy = h("button", { type: "button", class: "secondary", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, "Copy link");
    list.appendChild(h("li", {},
      h("b", {}, h("bdi", {}, s.name), s.name === `Player ${s.seat + 1}` ? null : ` (player ${s.seat + 1})`),
      h("span", { class: "join-row" },
        h("a", { href: s.join_url, class: i === 0 ? "button primary join-first" : "button secondary", id: i === 0 ? "open-table" : null }, i === 0 ? "Play this seat" : "Open this seat"),
        copy),
      h("input", { readonly: true, value: url, class: "link-field", "aria-label": `Player ${s.seat + 1}'s link` })));
  });
  box.appendChild(list);
  const open = created.seats.filter((s) => s.open);
  if (open.length) box.appendChild(h("p", { class: "muted" }, `Open seats (player ${open.map((s) => s.seat + 1).join(", ")}): a friend takes one from "Tables in play" below.`));
  box.appendChild(h("p", { class: "muted" }, "To watch: ", h("a", { href: created.url }, new URL(created.url, window.location.href).href)));
  box.scrollIntoView({ block: "nearest" });
}

// -- tables in play and finished -------------------------------------------------------------------
// Names as nodes, each isolated (<bdi>): a right-to-left name does not reorder the words around it.
function seatSummary(seats, you = null) {
  return seats.flatMap((s, i) => [
    i ? " vs " : null,
    i === you ? h("b", {}, "you (", h("bdi", {}, s.name), ")") : h("bdi", {}, s.name),
    s.kind === "ai" ? ` · ${aiLevel(s.ai)}` : null,
  ]);
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
  if (winners.length === r.length || winners.length === 0) return "a draw";
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

function movesText(n) {
  return n === 1 ? "1 move" : `${n} moves`;
}

function fillTables(id, rows, finished) {
  const ul = clear(document.getElementById(id));
  if (rows.length === 0) ul.appendChild(h("li", { class: "muted" }, finished ? "None yet." : "No table is in play right now."));
  for (const t of rows) {
    ul.appendChild(h("li", { class: "table-row" },
      h("span", { class: "table-words" },
        h("b", {}, titleOf(t.game)), " · ", seatSummary(t.seats), ` · ${movesText(t.step)}`,
        t.seeded ? [" · ", h("span", { class: "seeded", title: "its creator chose the deal" }, "chosen deal")] : null,
        finished ? [" · ", h("span", { class: "result" }, resultText(t))] : null),
      h("span", { class: "table-buttons" },
        h("a", { href: t.url, class: "button secondary small-button" }, finished ? "View" : "Watch"),
        finished ? null : t.seats.map((s, i) => (s.open ? h("button", {
          type: "button", class: "small-button join-open", dataset: { table: t.id, seat: i + 1 },
          onclick: () => claimSeat(t.id, i + 1),
        }, `Take seat ${i + 1}`) : null)),
        finished ? h("a", { href: t.record_url, download: true, class: "button secondary small-button" }, "Record") : null)));
  }
}

async function refreshTables() {
  try {
    const data = await getJSON("/api/tables");
    state.tables = data;
    fillTables("playing", data.playing, false);
    fillTables("finished", data.finished, true);
  } catch (err) {
    showError(`The tables could not be listed: ${err.message}`);
  }
  await renderMyGames();
}

// -- my games --------------------------------------------------------------------------------------
function readMyGames() {
  try {
    const list = JSON.parse(localStorage.getItem(MY_GAMES_KEY) || "[]");
    return Array.isArray(list)
      ? list.filter((g) => g && typeof g.id === "string" && typeof g.token === "string" && /^[A-Za-z0-9_-]+$/.test(g.token))
      : [];
  } catch (_) {
    return [];
  }
}

function forget(entry) {
  const kept = readMyGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  try { localStorage.setItem(MY_GAMES_KEY, JSON.stringify(kept)); } catch (_) { /* storage off */ }
  renderMyGames();
}

// "5 minutes ago", "yesterday": when a seat was first opened here, never a date.
function ago(when) {
  const minutes = Math.round((Date.now() - Number(when)) / 60000);
  if (!Number.isFinite(minutes)) return "";
  if (minutes < 1) return "just now";
  if (minutes < 60) return minutes === 1 ? "a minute ago" : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return hours === 1 ? "an hour ago" : `${hours} hours ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? "yesterday" : `${days} days ago`;
}

// What the server says of a table this browser holds a seat at: listed in play, listed finished,
// or looked up once (a table older than the lists, given up, or gone from this server).
async function tableNow(id) {
  const playing = state.tables.playing.find((t) => t.id === id);
  if (playing) return { ...playing, finished: false };
  const finished = state.tables.finished.find((t) => t.id === id);
  if (finished) return { ...finished, finished: true };
  if (!state.looked.has(id)) {
    state.looked.set(id, getJSON(`/api/tables/${encodeURIComponent(id)}`).catch(() => ({ gone: true })));
  }
  return state.looked.get(id);
}

async function renderMyGames() {
  const mine = readMyGames().sort((a, b) => Number(b.when || 0) - Number(a.when || 0));
  const panel = document.getElementById("my-games-panel");
  panel.hidden = mine.length === 0;
  const rows = await Promise.all(mine.map(async (entry) => [entry, await tableNow(entry.id)]));
  // Redrawn only when something changed: a focused Rejoin button keeps its focus between polls.
  const shown = JSON.stringify(rows.map(([e, now]) => [e.id, e.seat, ago(e.when),
    now.gone, now.finished, now.abandoned, now.result, (now.seats || []).map((s) => s.name)]));
  if (shown === state.myGamesShown) return;
  state.myGamesShown = shown;
  const ul = clear(document.getElementById("my-games"));
  for (const [entry, now] of rows) {
    const seats = Array.isArray(now.seats) ? now.seats : (entry.names || []).map((name) => ({ name: String(name), kind: "human" }));
    const over = Boolean(now.finished || now.result || now.abandoned || now.gone);
    const status = now.gone ? "no longer on this server"
      : now.result ? ["finished: ", resultText({ ...now, seats })]
        : now.abandoned ? "given up"
          : now.finished ? "finished" : "in play";
    const href = `/table/${encodeURIComponent(entry.id)}#seat=${entry.token}`;
    ul.appendChild(h("li", { class: `my-game${over ? " over" : ""}`, dataset: { table: entry.id } },
      h("div", { class: "my-game-art" }, picture(entry.game)),
      h("div", { class: "my-game-words" },
        h("b", {}, titleOf(entry.game)),
        h("span", { class: "my-game-seats" }, seatSummary(seats, Number.isInteger(entry.seat) ? entry.seat : null)),
        h("span", { class: "my-game-status" }, h("span", { class: `badge${over ? " done" : " live"}` }, status), entry.when ? ` · opened ${ago(entry.when)}` : "")),
      h("div", { class: "my-game-buttons" },
        now.gone ? null : h("a", { class: `button ${over ? "secondary" : "primary"} rejoin`, href }, over ? "Look back" : "Rejoin"),
        h("button", { type: "button", class: "secondary forget", onclick: () => forget(entry), "aria-label": `Remove ${titleOf(entry.game)} from my games` }, "Remove"))));
  }
}

async function start() {
  document.getElementById("guide-close").addEventListener("click", () => document.getElementById("guide").close());
  document.getElementById("guide").addEventListener("click", (event) => {
    // A tap on the backdrop (outside the dialog's box) closes it too.
    if (event.target === event.currentTarget) event.currentTarget.close();
  });
  try {
    const data = await getJSON("/api/games");
    state.games = data.games;
    state.aiLevels = data.ai_levels;
    state.guided = data.guided || [];
  } catch (err) {
    showError(`The games could not be loaded: ${err.message}`);
    return;
  }
  renderGames();
  document.getElementById("num-players").addEventListener("change", onCountChange);
  document.getElementById("create").addEventListener("submit", createTable);
  window.addEventListener("storage", (event) => { if (event.key === MY_GAMES_KEY) renderMyGames(); });
  await refreshTables();
  document.body.dataset.ready = "true";
  setInterval(refreshTables, 5000);
}

start();
