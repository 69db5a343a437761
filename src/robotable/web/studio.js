// The designer's studio: a card set edited as a table or as text (one draft, the text is the
// truth), a study run on it with live progress, and the answer in words, then plots.
import { h, clear, getJSON } from "./ui.js";

const $ = (id) => document.getElementById(id);
const KEY_COOKIE = "robotable_studio_key";
const PAST = "robotable_studies"; // this browser's studies: [{id, title}], newest first
const PAST_KEPT = 20;
const state = {
  setup: null,
  game: null,
  rows: [],
  error: null,
  loaded: "", // the set as loaded: side A of a comparison
  options: {}, // the draft's other rules, as the server read them
  study: null,
  socket: null,
  checkTimer: null,
  estimateTimer: null,
};

function keyHeaders() {
  const key = sessionStorage.getItem(KEY_COOKIE);
  return key ? { "x-studio-key": key } : {};
}

async function api(url, body) {
  const options = { headers: { ...keyHeaders() } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (response.status === 401 && data && data.key) {
    showKeyPanel();
    throw new Error(data.error);
  }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error : `The server answered ${response.status}.`);
    error.where = data && data.where;
    throw error;
  }
  return data;
}

function say(message) {
  const el = $("studio-error");
  el.textContent = message || "";
  el.hidden = !message;
}

function showKeyPanel() {
  $("key-panel").hidden = false;
  $("editor").hidden = true;
  $("ask").hidden = true;
}

// -- the game and its card set -------------------------------------------------------------

function gameInfo() {
  return state.setup.games.find((g) => g.name === state.game);
}

function fillGames() {
  const select = clear($("game"));
  for (const game of state.setup.games) select.append(h("option", { value: game.name }, game.title));
  select.value = state.game;
  fillSeats();
  fillSets();
}

function fillSeats() {
  const info = gameInfo();
  const select = clear($("seats"));
  for (let n = info.min_players; n <= info.max_players; n++) select.append(h("option", { value: n }, String(n)));
  select.value = String(Math.min(info.max_players, Math.max(info.min_players, info.default_players || 2)));
}

function fillSets() {
  const select = clear($("set"));
  gameInfo().sets.forEach((label, i) => select.append(h("option", { value: String(i) }, label)));
  select.append(h("option", { value: "own" }, "Your own set (paste it as text, or upload it)"));
}

async function loadBundled(index) {
  const data = await api(`/studio/api/sets/${encodeURIComponent(state.game)}/${index}`);
  setDraft(data.text, true);
}

function setDraft(text, loaded) {
  $("draft-text").value = text;
  if (loaded) {
    state.loaded = text;
    $("a-text").value = text;
  }
  checkNow();
}

// -- checking: rows and errors from the server ----------------------------------------------

function scheduleCheck() {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(checkNow, 300);
}

async function checkNow() {
  clearTimeout(state.checkTimer);
  const body = { game: state.game, seats: Number($("seats").value), cards: $("draft-text").value, options: $("options").value };
  let data;
  try {
    data = await api("/studio/api/check", body);
  } catch (err) {
    say(err.message);
    return;
  }
  say("");
  if (data.rows.length || !data.error) state.rows = data.rows;
  state.error = data.error;
  state.options = data.options || {};
  showError();
  drawTable();
  scheduleEstimate();
  document.body.dataset.checked = String(Number(document.body.dataset.checked || 0) + 1);
}

function errorWords(error, side) {
  const where = [];
  if (error.line) where.push(`Line ${error.line}`);
  if (error.field) where.push(error.field);
  const place = side ? `${side}, ` : "";
  return (where.length ? `${place}${where.join(", ")}: ` : place) + error.message;
}

function showError() {
  const el = $("draft-error");
  const error = state.error;
  el.hidden = !error;
  el.textContent = error ? errorWords(error, error.part === "options" ? "Other rules" : "") : "";
  el.dataset.line = error && error.line ? String(error.line) : "";
  $("run").disabled = Boolean(error);
}

// -- the table of cards ------------------------------------------------------------------------

function plural(word) {
  return /(ch|sh|s|x)$/.test(word) ? `${word}es` : `${word}s`;
}

function sections() {
  const seen = [];
  for (const row of state.rows) if (!seen.includes(row.section)) seen.push(row.section);
  return seen;
}

function drawTable() {
  const pick = $("section");
  const names = sections();
  const current = pick.value;
  clear(pick);
  for (const name of names) {
    const ofIt = state.rows.filter((r) => r.section === name);
    pick.append(h("option", { value: name }, `${plural(ofIt[0].kind)} (${ofIt.length})`));
  }
  pick.value = names.includes(current) ? current : names[0] || "";
  pick.parentElement.hidden = names.length < 2;
  const rows = state.rows.filter((r) => r.section === pick.value);
  const fields = [];
  for (const row of rows) for (const name of Object.keys(row.fields)) if (!fields.includes(name)) fields.push(name);
  const table = clear($("cards-table"));
  table.append(h("thead", {}, h("tr", {}, h("th", {}, "Line"), fields.map((f) => h("th", { scope: "col" }, f)))));
  const body = h("tbody");
  const error = state.error && state.error.part !== "options" ? state.error : null;
  for (const row of rows) {
    const lines = [row.line, ...Object.values(row.fields).map((c) => c.line)];
    const wrong = error && error.line && lines.includes(error.line);
    const tr = h("tr", { class: wrong ? "has-error" : null, dataset: { line: String(row.line), label: row.label } });
    tr.append(h("td", { class: "line" }, String(row.line)));
    for (const name of fields) {
      const cell = row.fields[name];
      const td = h("td", { class: wrong && error.field === name ? "cell-error" : null });
      if (!cell) td.append(missingInput(row, name));
      else if (cell.editable) td.append(cellInput(row, name, cell));
      else td.append(String(cell.value));
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
}

function cellInput(row, name, cell) {
  const input = h("input", {
    value: String(cell.value),
    "aria-label": `${row.label || row.section} ${row.number}: ${name}`,
    dataset: { field: name, line: String(cell.line) },
  });
  input.addEventListener("change", () => editCell(cell, name, input.value));
  return input;
}

function tomlValue(original, typed) {
  const text = typed.trim();
  if (typeof original === "boolean" && (text === "true" || text === "false")) return text;
  if (typeof original === "number" && text !== "" && Number.isFinite(Number(text))) return text;
  return JSON.stringify(typed);
}

// A field this card leaves out (its default applies): typing a value writes its line, after the
// card's last line of its own.
function missingInput(row, name) {
  const input = h("input", {
    value: "",
    placeholder: "–",
    "aria-label": `${row.label || row.section} ${row.number}: ${name}`,
    dataset: { field: name, missing: "true" },
  });
  input.addEventListener("change", () => {
    if (input.value.trim() === "") return;
    const lines = $("draft-text").value.split("\n");
    const own = [row.line, ...Object.values(row.fields).map((c) => c.line).filter(Boolean)];
    const after = Math.max(...own);
    lines.splice(after, 0, `${name} = ${tomlValue(0, input.value)}`);
    $("draft-text").value = lines.join("\n");
    checkNow();
  });
  return input;
}

function editCell(cell, name, typed) {
  const lines = $("draft-text").value.split("\n");
  const old = lines[cell.line - 1] || "";
  const indent = old.match(/^\s*/)[0];
  lines[cell.line - 1] = `${indent}${name} = ${tomlValue(cell.value, typed)}`;
  $("draft-text").value = lines.join("\n");
  checkNow();
}

function showView(which) {
  const table = which === "table";
  $("table-view").hidden = !table;
  $("text-view").hidden = table;
  $("view-table").setAttribute("aria-selected", String(table));
  $("view-text").setAttribute("aria-selected", String(!table));
  $("view-table").classList.toggle("secondary", !table);
  $("view-text").classList.toggle("secondary", table);
  if (!table && state.error && state.error.line && state.error.part !== "options") selectLine(state.error.line);
}

function selectLine(line) {
  const area = $("draft-text");
  const lines = area.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1] || "").length);
}

// A copy of the last entry of the section shown, added after it: its [[header]] and its lines.
function addCard() {
  const rows = state.rows.filter((r) => r.section === $("section").value);
  if (!rows.length) return;
  const last = rows[rows.length - 1];
  const lines = $("draft-text").value.split("\n");
  const next = state.rows.find((r) => r.line > last.line);
  let end = next ? next.line - 1 : lines.length;
  while (end > last.line && (lines[end - 1].trim() === "" || lines[end - 1].trim().startsWith("#"))) end--;
  const block = lines.slice(last.line - 1, end);
  lines.splice(end, 0, "", ...block);
  $("draft-text").value = lines.join("\n");
  checkNow();
}

function saveDraft() {
  const blob = new Blob([$("draft-text").value], { type: "text/plain" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `${state.game}-cards.toml` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

// -- the study -------------------------------------------------------------------------------

function studyBody() {
  const question = $("question").value;
  const draft = { cards: $("draft-text").value, options: $("options").value };
  const body = {
    game: state.game,
    seats: Number($("seats").value),
    question,
    level: $("level").value,
    games: Number($("games").value),
    a: draft,
  };
  // The same deal number plays the same games again (and the same as the command line's --seed).
  if ($("seed").value.trim() !== "") body.seed = Number($("seed").value);
  if (question === "compare") {
    body.a = { cards: $("a-text").value, options: $("a-options").value };
    body.b = draft;
  }
  return body;
}

function scheduleEstimate() {
  clearTimeout(state.estimateTimer);
  $("estimate").textContent = "";
  if (state.error) return;
  state.estimateTimer = setTimeout(async () => {
    if (state.error) return;
    $("estimate").textContent = "Timing a game on this server…";
    try {
      const data = await api("/studio/api/estimate", studyBody());
      $("estimate").textContent = data.error ? data.error : `This study takes ${data.words} on this server.`;
    } catch (err) {
      $("estimate").textContent = err.message;
    }
  }, 600);
}

async function runStudy() {
  say("");
  let study;
  try {
    study = await api("/studio/api/studies", studyBody());
  } catch (err) {
    say(err.message);
    return;
  }
  state.study = study;
  $("answer").hidden = true;
  $("run").disabled = true;
  $("cancel").hidden = false;
  $("progress-box").hidden = false;
  showProgress(study);
  watch(study.id);
}

function showProgress(status) {
  $("progress").max = Math.max(1, status.total);
  $("progress").value = status.done;
  const words = { queued: "Waiting for the studies before it", running: "Playing", done: "Done", cancelled: "Cancelled", failed: "Stopped" };
  $("progress-text").textContent = `${words[status.state] || status.state}: ${status.done} of ${status.total} games`;
  document.body.dataset.study = status.state;
}

function watch(id) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/studio/ws/studies/${encodeURIComponent(id)}`);
  state.socket = socket;
  socket.addEventListener("message", async (event) => {
    const status = JSON.parse(event.data);
    showProgress(status);
    if (["done", "cancelled", "failed"].includes(status.state)) {
      socket.close();
      $("run").disabled = Boolean(state.error);
      $("cancel").hidden = true;
      if (status.state === "failed") say(status.error);
      else await showStudy(id);
    }
  });
}

async function cancelStudy() {
  if (!state.study) return;
  try {
    await api(`/studio/api/studies/${encodeURIComponent(state.study.id)}/cancel`, {});
  } catch (err) {
    say(err.message);
  }
}

// -- this browser's studies, to find an answer again -----------------------------------------------

function pastStudies() {
  try {
    const past = JSON.parse(localStorage.getItem(PAST) || "[]");
    return Array.isArray(past) ? past.filter((p) => p && typeof p.id === "string" && typeof p.title === "string") : [];
  } catch (_) {
    return [];
  }
}

function remember(study) {
  const past = [{ id: study.id, title: study.title }, ...pastStudies().filter((p) => p.id !== study.id)];
  localStorage.setItem(PAST, JSON.stringify(past.slice(0, PAST_KEPT)));
  showPast();
}

function showPast() {
  const past = pastStudies();
  const list = clear($("past"));
  for (const p of past) list.append(h("li", {}, h("a", { href: `/studio/s/${encodeURIComponent(p.id)}` }, p.title)));
  $("past-panel").hidden = past.length === 0 || window.location.pathname.startsWith("/studio/s/");
}

// A study as the server keeps it, or null (and why, said in the page).
async function fetchStudy(id) {
  try {
    return await api(`/studio/api/studies/${encodeURIComponent(id)}`);
  } catch (err) {
    say(err.message);
    return null;
  }
}

async function showStudy(id) {
  const study = await fetchStudy(id);
  if (!study) return;
  $("answer").hidden = false;
  $("answer-title").textContent = study.title;
  const list = clear($("verdicts"));
  for (const line of study.verdicts) list.append(h("li", {}, line));
  $("deal-line").textContent = `Deal number ${study.seed}: the same number plays the same games again.`;
  const charts = clear($("charts"));
  for (const svg of study.charts) {
    const figure = h("figure", { class: "chart-box" });
    figure.innerHTML = svg; // drawn and escaped by the server (server/studio_svg.py)
    charts.append(figure);
  }
  const link = new URL(study.url, window.location.href).href;
  $("share").textContent = link;
  $("share").href = study.url;
  $("share-line").hidden = false;
  remember(study);
  $("reopen").href = `/studio#study=${encodeURIComponent(study.id)}`;
  $("reopen").hidden = !window.location.pathname.startsWith("/studio/s/");
  document.body.dataset.answer = study.id;
}

// -- play the draft ------------------------------------------------------------------------------

async function playDraft(friends) {
  const seats = Number($("seats").value);
  const level = $("level").value === "random" ? "easy" : $("level").value;
  const seatList = [{ kind: "human", name: "You" }];
  for (let i = 1; i < seats; i++) seatList.push(friends ? { kind: "human", open: true } : { kind: "ai", ai: level });
  const options = { ...state.options, [gameInfo().option]: `inline:${$("draft-text").value}` };
  try {
    const created = await getJSON("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: state.game, num_players: seats, options, seats: seatList }),
    });
    window.location.assign(created.seats[0].join_url);
  } catch (err) {
    say(`The table did not open: ${err.message}`);
  }
}

// -- start -------------------------------------------------------------------------------------

async function start() {
  const shared = window.location.pathname.match(/^\/studio\/s\/([^/]+)$/);
  if (shared) {
    await showStudy(decodeURIComponent(shared[1]));
    return;
  }
  try {
    state.setup = await api("/studio/api/setup");
  } catch (err) {
    if (!$("key-panel").hidden) return;
    say(err.message);
    return;
  }
  $("key-panel").hidden = true;
  showPast();
  $("editor").hidden = false;
  $("ask").hidden = false;
  state.game = state.setup.games[0].name;
  for (const q of state.setup.questions) $("question").append(h("option", { value: q.id }, q.label));
  for (const level of state.setup.levels) $("level").append(h("option", { value: level.id }, level.label));
  $("games").max = String(state.setup.max_games);
  fillGames();
  const from = window.location.hash.match(/^#study=([\w-]+)$/);
  if (from) await reopen(from[1]);
  else await loadBundled(0);
}

// A shared study's sets and question, back in the editor (a copy: the shared answer stays).
async function reopen(id) {
  const study = await fetchStudy(id);
  if (!study) {
    await loadBundled(0);
    return;
  }
  const inputs = study.inputs;
  state.game = inputs.game;
  fillGames();
  $("seats").value = String(inputs.seats);
  $("set").value = "own";
  $("question").value = inputs.question;
  $("level").value = inputs.level;
  $("games").value = String(inputs.games);
  $("seed").value = String(inputs.seed);
  const draft = inputs.sides[inputs.sides.length - 1];
  $("options").value = draft.options;
  $("a-text").value = inputs.sides[0].cards;
  $("a-options").value = inputs.sides[0].options;
  $("compare-panel").hidden = inputs.question !== "compare";
  $("draft-text").value = draft.cards;
  state.loaded = inputs.sides[0].cards;
  await checkNow();
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = $("studio-key").value.trim();
  sessionStorage.setItem(KEY_COOKIE, key);
  document.cookie = `${KEY_COOKIE}=${key}; path=/studio; SameSite=Strict`;
  say("");
  start().then(() => {
    if (!$("key-panel").hidden) say("That is not this studio's key.");
  });
});
$("game").addEventListener("change", async () => {
  state.game = $("game").value;
  fillSeats();
  fillSets();
  $("options").value = "";
  $("a-options").value = "";
  await loadBundled(0);
});
$("seats").addEventListener("change", checkNow);
$("set").addEventListener("change", async () => {
  const value = $("set").value;
  if (value === "own") {
    setDraft("", true);
    showView("text");
  } else await loadBundled(Number(value));
});
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (file) {
    $("set").value = "own";
    setDraft(await file.text(), true);
  }
});
$("draft-text").addEventListener("input", scheduleCheck);
$("options").addEventListener("input", scheduleCheck);
$("section").addEventListener("change", drawTable);
$("view-table").addEventListener("click", () => showView("table"));
$("view-text").addEventListener("click", () => showView("text"));
$("question").addEventListener("change", () => {
  $("compare-panel").hidden = $("question").value !== "compare";
  scheduleEstimate();
});
for (const id of ["level", "games", "a-text", "a-options"]) $(id).addEventListener("input", scheduleEstimate);
$("run").addEventListener("click", runStudy);
$("cancel").addEventListener("click", cancelStudy);
$("add-card").addEventListener("click", addCard);
$("save").addEventListener("click", saveDraft);
$("play-ai").addEventListener("click", () => playDraft(false));
$("play-friends").addEventListener("click", () => playDraft(true));
start();
