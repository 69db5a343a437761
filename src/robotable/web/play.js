// The play page shell, the same for every game: header and seats, whose decision and why, the
// board (drawn by games/<name>.js, or the generic drawing), leftover choices as buttons, the log,
// undo, the end screen and the record download. The server decides everything; this page only
// shows what the websocket sends and sends back the index of the chosen legal action.
import { clear, h, humanize } from "./ui.js";
import generic from "./games/generic.js";
import * as motion from "./motion.js";

const tableId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const TOKEN_KEY = `robotable-seat-${tableId}`;

const page = {
  socket: null,
  table: null,
  you: null,
  view: null,
  step: -1,
  drawnStep: -1,
  changedKeys: [],
  log: [],
  module: null,
  moduleName: null,
  pending: false,
  retry: 0,
  nextId: 1,
  thinking: null,
  canUndo: false,
  chat: [],
  clock: null, // the frame's clock, with `at`: when it arrived (performance.now())
  resultWords: null, // who won, in the game's own sentence for this reader (the end frame)
  autoHeld: false, // after an undo, a forced move waits for the player's click
};

function takeClock(frame) {
  page.clock = frame.clock ? { ...frame.clock, at: performance.now() } : null;
  renderClock();
}

function renderClock() {
  const el = document.getElementById("clock");
  const c = page.clock;
  if (!c || c.seat === null || c.seat === undefined || c.remaining === null) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, c.remaining - (performance.now() - c.at) / 1000);
  const text = `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
  el.hidden = false;
  el.textContent = `${c.seat === page.you ? "Your" : `${seatName(c.seat)}'s`} time: ${text}${c.mode === "game" ? " for the game" : " for this move"}`;
  el.classList.toggle("low", left < 10);
}

setInterval(renderClock, 500);

const MUTE_KEY = "robotable-chat-muted";

function seatToken() {
  const match = window.location.hash.match(/seat=([A-Za-z0-9_-]+)/);
  if (match) {
    try { sessionStorage.setItem(TOKEN_KEY, match[1]); } catch (_) { /* storage off: keep the hash */ }
    return match[1];
  }
  try { return sessionStorage.getItem(TOKEN_KEY); } catch (_) { return null; }
}

// My games: a seat this browser holds is kept (table, seat token, game, names, when first
// opened), so the lobby can offer it again from any tab; marked finished when the game ends.
const MY_GAMES_KEY = "robotable-my-games";

function rememberSeat() {
  const token = seatToken();
  if (!token || page.you === null || page.you === undefined || !page.table) return;
  try {
    const stored = JSON.parse(localStorage.getItem(MY_GAMES_KEY) || "[]");
    const list = Array.isArray(stored) ? stored : [];
    const old = list.find((g) => g && g.id === page.table.id && g.seat === page.you);
    const entry = {
      id: page.table.id, seat: page.you, token, game: page.table.game,
      names: page.table.seats.map((s) => s.name), when: (old && old.when) || Date.now(),
      finished: Boolean(page.table.finished || (page.view && page.view.terminal)),
    };
    const rest = list.filter((g) => g !== old);
    localStorage.setItem(MY_GAMES_KEY, JSON.stringify([entry, ...rest].slice(0, 40)));
  } catch (_) { /* storage off: this tab only */ }
}

function seatName(i) {
  if (i === null || i === undefined || i < 0 || !page.table) return "—";
  const s = page.table.seats[i];
  if (!s) return `Seat ${i + 1}`;
  const you = i === page.you ? " (you)" : "";
  return `${s.name}${you}`;
}

// An AI seat's strength beside its name ("Ada · hard"): a named strength, or a spec's kind.
function aiLevel(spec) {
  return String(spec || "AI").split(":")[0];
}

// A game's own text (its prompt) says "Seat 2"; the table knows that seat's name.
function named(text) {
  if (!page.table) return text;
  return String(text).replace(/\bSeat (\d+)\b/g, (whole, n) => {
    const s = page.table.seats[Number(n) - 1];
    return s ? s.name : whole;
  });
}

function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 5000);
}

async function loadModule(game) {
  if (page.moduleName === game) return page.module;
  let mod = generic;
  try {
    const imported = await import(`/static/games/${encodeURIComponent(game)}.js`);
    mod = imported.default || generic;
  } catch (_) {
    mod = generic; // no drawing for this game yet: the generic panels still play it fully
  }
  page.module = mod;
  page.moduleName = game;
  return mod;
}

function send(message) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) {
    toast("not connected; reconnecting…");
    return false;
  }
  page.socket.send(JSON.stringify(message));
  return true;
}

function act(index, auto = false) {
  if (page.pending || !page.view) return;
  if (!auto) motion.finish(); // a choice ends the telling of the last move at once
  cancelForced();
  if (!auto) page.autoHeld = false; // the player chose again: forced moves are taken again
  page.pending = true;
  document.body.dataset.pending = "true";
  for (const el of document.querySelectorAll("[data-action-index]")) el.classList.add("waiting");
  if (!send({ type: "act", id: page.nextId++, index, step: page.step })) settle();
}

// A turn plan (the frame's "plans"): several of the seat's ordinary moves as one decision, such
// as "end the turn now"; the server applies them one by one, each an ordinary step of the log.
function actPlan(key) {
  if (page.pending || !page.view) return;
  motion.finish();
  page.pending = true;
  document.body.dataset.pending = "true";
  if (!send({ type: "act", id: page.nextId++, plan: key, step: page.step })) settle();
}

function renderPlans() {
  const plans = page.plans || [];
  if (plans.length === 0) return;
  const box = document.getElementById("actions");
  const row = h("div", { class: "action-group plans" }, h("span", { class: "action-kind" }, "Shortcuts"));
  for (const plan of plans) {
    const button = h("button", { type: "button", class: "action-button plan-button", dataset: { plan: plan.key } }, plan.label);
    button.addEventListener("click", (e) => { e.stopPropagation(); actPlan(plan.key); });
    row.appendChild(button);
  }
  box.appendChild(row);
}

function settle() {
  page.pending = false;
  document.body.dataset.pending = "false";
}

// -- drawing -------------------------------------------------------------------------------------
function makeContext(view) {
  const legal = view.legal_actions || [];
  const claimed = new Set();
  return {
    view,
    you: page.you,
    table: page.table,
    legal,
    seatName,
    // A seat list in words ("Ada, Bo and Cy") and a game's own line with its seats named.
    seatNames(seats) {
      const names = seats.map(seatName);
      return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
    },
    named,
    h,
    // Make `el` the control for legal action `index` (a card, a tile, a bid button).
    bind(el, index, label) {
      if (index === undefined || index === null || !legal[index]) return el;
      claimed.add(index);
      el.classList.add("actionable");
      el.dataset.actionIndex = String(index);
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.title = label || legal[index].label;
      el.setAttribute("aria-label", label || legal[index].label);
      el.addEventListener("click", (e) => { e.stopPropagation(); act(index); });
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(index); }
      });
      return el;
    },
    // Legal actions whose JSON matches `fields` (e.g. {type: "play", card: 3}).
    find(fields) {
      return legal.filter((a) => Object.entries(fields).every(([k, v]) => JSON.stringify(a.action[k]) === JSON.stringify(v)));
    },
    claim(index) { claimed.add(index); },
    claimed,
    act,
  };
}

function render() {
  const view = page.view;
  if (!view || !page.table) return;
  const deciding = view.current_player;
  const youDecide = page.you !== null && deciding === page.you && !view.terminal;
  document.body.dataset.step = String(page.step);
  document.body.dataset.deciding = String(youDecide);
  document.body.dataset.terminal = String(Boolean(view.terminal));
  document.body.dataset.game = page.table.game;

  renderHeader();
  renderStatus(view, youDecide);

  const boardEl = document.getElementById("board");
  const before = snapshot(boardEl);
  // A new step moves what it moved (motion.js): where every piece was, taken before redrawing.
  const moved = page.step > page.drawnStep && page.drawnStep >= 0;
  const where = moved ? motion.capture(boardEl) : null;
  const board = clear(boardEl);
  const ctx = makeContext(view);
  const mod = page.module || generic;
  try {
    mod.render(board, view, ctx);
  } catch (err) {
    // A drawing bug must never stop play: fall back to the generic panels. It is still a bug:
    // reported on the console and marked on the page, where the browser tests look for it.
    console.error(err);
    document.body.dataset.drawingFailed = String(err && err.message);
    clear(board);
    ctx.claimed.clear();
    generic.render(board, view, ctx);
  }
  if (moved) motion.play(board, where);
  motion.redrawn(board);
  renderLeftoverActions(ctx);
  renderPlans();
  if (page.step > page.drawnStep && page.drawnStep >= 0) markChanges(before, board);
  page.drawnStep = page.step;
  renderLog();
  renderSide();
  renderEnd(view);
  renderBarChoices(ctx, youDecide);
  turnAlert(youDecide);
  takeForced(view, youDecide);
  // The guided first game's coach (coach.js) follows the table from here.
  document.dispatchEvent(new CustomEvent("robotable:render", { detail: page }));
}

// -- motion: what the last move changed --------------------------------------------------------
// The drawings tag their pieces (data-card, data-die, data-tile, data-seat, data-key). After a
// move, every piece that is new or reads differently glows for a moment; the newest log entry
// shows it again on demand. With reduced motion the glow is a still outline (style.css).
const PIECES = ["card", "die", "tile", "seat", "key"];
const PIECE_SELECTOR = PIECES.map((p) => `[data-${p}]`).join(",");

function pieceKey(el) {
  for (const p of PIECES) if (el.dataset[p] !== undefined) return `${p}:${el.dataset[p]}`;
  return null;
}

function snapshot(root) {
  const seen = new Map();
  for (const el of root.querySelectorAll(PIECE_SELECTOR)) seen.set(pieceKey(el), el.textContent);
  return seen;
}

function markChanges(before, root) {
  const changed = [];
  for (const el of root.querySelectorAll(PIECE_SELECTOR)) {
    const key = pieceKey(el);
    if (!before.has(key) || before.get(key) !== el.textContent) changed.push(el);
  }
  // The smallest pieces tell the story: a seat zone that changed only because a card in it did
  // is left alone.
  const leaves = changed.filter((el) => !changed.some((other) => other !== el && el.contains(other)));
  page.changedKeys = leaves.map(pieceKey);
  flash();
}

function flash() {
  for (const key of page.changedKeys || []) {
    const [kind, ...rest] = key.split(":");
    const el = document.querySelector(`#board [data-${kind}="${CSS.escape(rest.join(":"))}"]`);
    if (!el) continue;
    el.classList.remove("changed");
    void el.offsetWidth; // restart the animation
    el.classList.add("changed");
  }
}

function renderHeader() {
  const t = page.table;
  document.getElementById("title").textContent = `${t.title} · table ${t.id}`;
  document.title = page.view && youDecideNow() ? `● Your turn — ${t.title}` : `${t.title} · robotable`;
  const seats = clear(document.getElementById("seats"));
  for (const s of t.seats) {
    const classes = ["seat-chip"];
    if (s.seat === page.you) classes.push("you");
    if (page.view && s.seat === page.view.current_player) classes.push("deciding");
    const badge = s.kind === "ai" ? `· ${aiLevel(s.ai)}` : (s.connected ? "online" : "away");
    seats.appendChild(h("span", { class: classes.join(" "), dataset: { seat: s.seat } },
      h("b", {}, `${s.seat + 1}. `, h("bdi", {}, s.name)), " ", h("small", {}, s.seat === page.you ? "you" : badge)));
  }
  if (page.you === null) seats.appendChild(h("span", { class: "seat-chip spectator" }, "watching"));
  if (t.spectators) seats.appendChild(h("span", { class: "seat-chip spectators", title: "spectators" }, `${t.spectators} watching`));
  // A seed the table's creator chose is shown to everyone (the server sends it as text).
  if (t.seed) seats.appendChild(h("span", { class: "seat-chip seeded", title: "the table's creator chose this deal" }, `seed ${t.seed}`));
}

function renderStatus(view, youDecide) {
  const status = document.getElementById("status");
  status.className = "status";
  if (view.terminal) {
    status.textContent = "The game is over.";
    status.classList.add("over");
    return;
  }
  if (page.table.abandoned) {
    status.textContent = "This table was given up after a long time without a move.";
    return;
  }
  const who = seatName(view.current_player);
  // The prompt is addressed to the deciding seat ("discard a card"): only that seat reads it.
  const why = view.prompt ? `: ${named(view.prompt)}` : "";
  if (youDecide) {
    status.textContent = `Your decision${why}`;
    status.classList.add("yours");
  } else if (page.thinking !== null && page.thinking !== undefined) {
    status.replaceChildren(h("bdi", {}, who), " is thinking…");
    status.classList.add("thinking");
  } else {
    status.replaceChildren("Waiting for ", h("bdi", {}, who), " to decide");
  }
  if (page.table.ai_error) status.append(` — ${page.table.ai_error}`);
}

function renderLeftoverActions(ctx) {
  const box = clear(document.getElementById("actions"));
  const left = ctx.legal.filter((a) => !ctx.claimed.has(a.index));
  if (left.length === 0) return;
  const groups = new Map();
  for (const a of left) {
    const kind = a.action.type || "choice";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(a);
  }
  box.appendChild(h("div", { class: "actions-title" }, named(page.view.prompt || "Choose")));
  for (const [kind, actions] of groups) {
    const row = h("div", { class: "action-group" }, h("span", { class: "action-kind" }, humanize(kind)));
    for (const a of actions) {
      const button = h("button", { type: "button", class: "action-button" }, a.label);
      ctx.bind(button, a.index, a.label);
      row.appendChild(button);
    }
    box.appendChild(row);
  }
}

function moveTitle(entry) {
  if (entry.seat === page.you) return "Your move";
  const s = page.table.seats[entry.seat];
  return s ? `${s.name}'s move` : "The move";
}

function logItem(entry) {
  // The words come from the server (the game's narration, worded for this reader): the page
  // never words an event itself, so the terminal and the browser read the same.
  const who = seatName(entry.seat);
  const head = entry.label ? `${who}: ${entry.label}` : who;
  const timed = entry.timeout ? `${head} (time ran out: the table chose)` : head;
  const lines = entry.lines || [];
  return h("li", { class: entry.seat === page.you ? "mine" : "", dataset: { step: entry.step } },
    h("span", { class: "log-step" }, `${entry.step}.`), " ", h("span", { class: "log-head" }, timed),
    lines.length ? h("ul", { class: "log-events" }, lines.map((t) => h("li", {}, t))) : null);
}

function renderLog() {
  const list = document.getElementById("log");
  const shown = Number(list.dataset.shown || 0);
  if (shown > page.log.length || list.dataset.full !== "true") {
    clear(list);
    const opening = document.getElementById("opening");
    opening.hidden = !(page.opening && page.opening.length);
    clear(opening);
    for (const line of page.opening || []) opening.appendChild(h("li", {}, line));
    for (const entry of page.log) list.appendChild(logItem(entry));
    list.dataset.full = "true";
  } else {
    for (const entry of page.log.slice(shown)) list.appendChild(logItem(entry));
  }
  list.dataset.shown = String(page.log.length);
  for (const old of list.querySelectorAll(".latest")) old.classList.remove("latest");
  const last = list.lastElementChild;
  if (last && page.log.length) {
    last.classList.add("latest");
    if (!last.querySelector(".show-move")) {
      const show = h("button", { type: "button", class: "small-button show-move" }, "show on the board");
      show.addEventListener("click", flash);
      last.appendChild(show);
    }
    const words = page.log[page.log.length - 1];
    document.getElementById("announce").textContent = [seatName(words.seat), ...(words.lines || [])].join(". ");
  }
  list.scrollTop = list.scrollHeight;
}

function renderSide() {
  const hint = document.getElementById("hint");
  const deciding = page.view && page.you !== null && page.view.current_player === page.you && !page.view.terminal;
  hint.hidden = !(page.table.hints && deciding);
  const box = document.getElementById("hint-box");
  if (box.dataset.step !== String(page.step)) {
    box.hidden = true;
    box.dataset.step = String(page.step);
    hint.disabled = false;
  }
  const undo = document.getElementById("undo");
  undo.disabled = !page.canUndo || page.pending;
  undo.hidden = page.you === null;
  const record = document.getElementById("record");
  if (page.table.record_url) {
    record.href = page.table.record_url;
    record.hidden = false;
  } else {
    record.hidden = true;
  }
}

// Why the game ended, in one line: the last prompt ("a draw at the turn limit", "Bo wins by the
// Showdown") unless the headline says it already, and how many moves it took.
function endWhy(view) {
  const moves = page.log.length ? `after ${page.log.length} moves` : "";
  let why = named(view.prompt || "").trim().replace(/^(the )?(game|match)( is)? over[:,]?\s*/i, "").replace(/\.$/, "");
  if (why && page.resultWords && page.resultWords.includes(why)) why = "";
  if (!why) return moves ? `Game over ${moves}.` : "Game over.";
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}${moves ? `, ${moves}` : ""}.`;
}

function renderEnd(view) {
  const end = document.getElementById("end");
  if (!view.terminal) {
    end.hidden = true;
    return;
  }
  if (end.dataset.dismissed === String(page.step)) return;
  const returns = view.returns || (page.table.result && page.table.result.returns) || [];
  const best = Math.max(...returns);
  const winners = returns.map((v, i) => [v, i]).filter(([v]) => v === best && v > 0).map(([, i]) => i);
  const draw = returns.length > 1 && (winners.length === returns.length || winners.length === 0);
  // The game's own sentence (the server's end frame, as the terminal says it); without one,
  // who won from the returns.
  let headline = page.resultWords;
  if (!headline) {
    if (returns.length === 1) headline = `${page.you !== null ? "You" : seatName(0)} ${returns[0] > 0.5 ? "won" : returns[0] === 0.5 ? "drew" : "lost"}.`;
    else if (draw) headline = "A draw.";
    else headline = `${winners.map((i) => (i === page.you ? "You" : seatName(i))).join(" and ")} won.`;
  }
  const standing = (i) => {
    if (returns.length === 1) return returns[0] > 0.5 ? "won" : returns[0] === 0.5 ? "drew" : "lost";
    if (draw) return "drew";
    return winners.includes(i) ? (winners.length > 1 ? "shares the win" : "won") : "lost";
  };
  // Each seat's score where the game keeps one (the table's result: "loaves", "cards left").
  const result = page.table.result || {};
  const scores = Array.isArray(result.scores) && result.scores.length === returns.length && result.unit ? result.scores : null;
  clear(end);
  end.hidden = false;
  end.appendChild(h("div", { class: "end-card", id: "end-card" },
    h("h2", { id: "end-words" }, headline),
    h("p", { class: "muted end-why" }, endWhy(view)),
    h("table", { class: "results" },
      h("tr", {}, h("th", {}, "Player"), scores ? h("th", {}, humanize(result.unit)) : null, h("th", {}, "Result")),
      returns.map((v, i) => h("tr", { class: winners.includes(i) && !draw ? "winner" : "" },
        h("td", {}, h("bdi", {}, seatName(i))),
        scores ? h("td", { class: "score" }, String(scores[i])) : null,
        h("td", {}, standing(i))))),
    page.table.record_url ? h("p", {}, h("a", { class: "button", id: "end-record", href: page.table.record_url, download: true }, "Download the record"),
      h("br"), h("small", { class: "muted" }, "Replay it with: robotable replay FILE")) : null,
    h("p", { class: "end-buttons" }, rematchControl(), h("a", { href: "/", class: "button" }, "Back to the lobby")),
    h("p", {}, h("button", { type: "button", id: "end-close", onclick: () => { end.hidden = true; end.dataset.dismissed = String(page.step); } }, "Look at the table"))));
}

// -- your turn: the tab's title and icon, a sound, a notification ------------------------------
const AUTO_KEY = "robotable-auto-forced";
const SOUND_KEY = "robotable-turn-sound";
const ICON_PLAIN = "/static/favicon.svg";
// The site's icon with a gold dot, made from the icon itself when the page loads (an SVG data
// URL), so even a hidden tab shows it is your turn.
let iconTurn = null;
fetch(ICON_PLAIN)
  .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
  .then((svg) => {
    const dot = '<circle cx="25" cy="7" r="6.5" fill="#f2b705" stroke="#fff" stroke-width="1.5"/>';
    iconTurn = `data:image/svg+xml,${encodeURIComponent(svg.replace("</svg>", `${dot}</svg>`))}`;
    if (page.view && page.table) turnAlert(youDecideNow());
  })
  .catch(() => { /* no icon to mark: the title still says it */ });

function setting(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "true";
  } catch (_) { return fallback; }
}

function remember(key, value) {
  try { localStorage.setItem(key, String(value)); } catch (_) { /* storage off: this page only */ }
}

function youDecideNow() {
  return page.you !== null && page.view.current_player === page.you && !page.view.terminal;
}

function turnAlert(youDecide) {
  const t = page.table;
  document.title = youDecide ? `● Your turn — ${t.title}` : `${t.title} · robotable`;
  const icon = document.querySelector("link[rel~=icon]");
  const href = youDecide && iconTurn ? iconTurn : ICON_PLAIN;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  // Only when the decision comes to you (not on every step of your turn, nor on arriving).
  const arriving = youDecide && turnAlert.was === false;
  turnAlert.was = youDecide;
  if (!arriving) return;
  if (setting(SOUND_KEY, false)) chime();
  if (document.hidden && window.Notification && Notification.permission === "granted") {
    try {
      new Notification(`Your turn — ${t.title}`, { body: named(page.view.prompt || "It is your decision."), tag: `robotable-${tableId}` });
    } catch (_) { /* a browser that shows none from a page: the title still says it */ }
  }
}

// Two soft notes, synthesised (no sound file), only when the player switched the sound on.
function chime() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    chime.ctx = chime.ctx || new Ctx();
    const ctx = chime.ctx;
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = ctx.currentTime + i * 0.16;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.32);
    });
  } catch (_) { /* no audio here: the title and icon still say it */ }
}

// -- a forced single choice: taken for the player after a short visible beat --------------------
const FORCED_BEAT_MS = 700;

function cancelForced() {
  clearTimeout(takeForced.timer);
  takeForced.timer = null;
  document.body.dataset.forced = "false";
  for (const el of document.querySelectorAll(".forced")) el.classList.remove("forced");
}

function takeForced(view, youDecide) {
  const legal = view.legal_actions || [];
  const only = youDecide && !page.pending && legal.length === 1 && !page.autoHeld
    && !page.table.abandoned && setting(AUTO_KEY, true);
  if (!only) {
    cancelForced();
    return;
  }
  const index = legal[0].index;
  const step = page.step;
  // The beat is shown on every drawing of this step: the only choice marked, the status saying so.
  document.getElementById("status").append(h("span", { class: "forced-note" }, " — the only choice: taking it for you"));
  for (const el of document.querySelectorAll(`[data-action-index="${index}"]`)) el.classList.add("forced");
  document.body.dataset.forced = "true"; // the page is about to choose (tests wait for it)
  if (takeForced.timer && takeForced.step === step) return;
  clearTimeout(takeForced.timer);
  takeForced.step = step;
  takeForced.timer = setTimeout(() => {
    takeForced.timer = null;
    document.body.dataset.forced = "false";
    if (page.step === step && !page.pending && !page.autoHeld && setting(AUTO_KEY, true)) act(index, true);
  }, FORCED_BEAT_MS);
}

// On a phone the bar at the screen's foot holds every choice too, so acting needs no scrolling.
const PHONE = window.matchMedia("(max-width: 700px)"); // the bar's breakpoint in style.css

function renderBarChoices(ctx, youDecide) {
  const bar = clear(document.getElementById("bar-choices"));
  // Only where the bar is at the screen's foot: a desktop has every choice in view already.
  if (!youDecide || !PHONE.matches) return;
  for (const a of ctx.legal) {
    const button = h("button", { type: "button", class: "action-button bar-choice", dataset: { actionIndex: String(a.index) }, title: a.label }, a.label);
    button.addEventListener("click", (e) => { e.stopPropagation(); act(a.index); });
    bar.appendChild(button);
  }
}

// -- between games: chat and rematch ------------------------------------------------------------
function rematchControl() {
  if (page.table.rematch) {
    return h("a", { class: "button primary", id: "rematch-link", href: rematchUrl(page.table.rematch) }, "Go to the rematch");
  }
  if (page.you === null || page.table.seats[page.you].kind !== "human") return null;
  return h("button", {
    type: "button", id: "rematch", class: "primary",
    onclick: (event) => { if (send({ type: "rematch", id: page.nextId++ })) event.target.disabled = true; },
    title: "Everyone at this table moves to a new game",
  }, "Rematch");
}

function rematchUrl(id) {
  const token = page.you === null ? null : seatToken();
  return `/table/${encodeURIComponent(id)}${token ? `#seat=${token}` : ""}`;
}

function chatMuted() {
  try { return localStorage.getItem(MUTE_KEY) === "true"; } catch (_) { return false; }
}

function renderChat() {
  const list = clear(document.getElementById("chat"));
  const muted = chatMuted();
  document.getElementById("chat-mute").checked = muted;
  document.getElementById("chat-form").hidden = page.you === null;
  if (muted) {
    list.appendChild(h("li", { class: "muted" }, `The chat is muted (${page.chat.length} lines).`));
    return;
  }
  // Text nodes only: whatever a player types is shown as text, never as markup; names and lines
  // are isolated (<bdi>), so right-to-left text does not reorder what is around it.
  for (const line of page.chat) {
    list.appendChild(h("li", {}, h("b", {}, h("bdi", {}, seatName(line.seat)), ": "), h("bdi", {}, line.text)));
  }
  list.scrollTop = list.scrollHeight;
}

// How to play: the game's guide (the same text as `robotable rules GAME`), fetched when opened.
document.getElementById("howto").addEventListener("toggle", async (event) => {
  const body = document.getElementById("howto-body");
  if (!event.target.open || body.dataset.loaded || !page.table) return;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(page.table.game)}/guide`);
    if (!response.ok) throw new Error(String(response.status));
    const guide = await response.json();
    // The server renders the game's own Markdown with raw HTML switched off.
    body.innerHTML = guide.html;
    body.dataset.loaded = "true";
  } catch (_) {
    body.textContent = "The guide could not be loaded; try again.";
  }
});

document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", id: page.nextId++, text })) input.value = "";
});

document.getElementById("chat-mute").addEventListener("change", (event) => {
  try { localStorage.setItem(MUTE_KEY, String(event.target.checked)); } catch (_) { /* storage off */ }
  renderChat();
});

// -- the connection --------------------------------------------------------------------------------
async function onFrame(frame) {
  switch (frame.type) {
    case "state":
      page.table = frame.table;
      page.you = frame.you;
      page.view = frame.view;
      page.plans = frame.plans || [];
      page.step = frame.step;
      page.log = frame.log;
      page.opening = frame.opening || [];
      page.canUndo = frame.can_undo;
      page.thinking = frame.thinking;
      page.chat = frame.chat || [];
      page.resultWords = frame.result_words || null;
      renderChat();
      takeClock(frame);
      document.getElementById("log").dataset.full = "false";
      rememberSeat();
      await loadModule(page.table.game);
      settle();
      motion.finish(); // the whole table again (arriving, an undo): nothing left to tell
      render();
      break;
    case "update":
      page.view = frame.view;
      page.plans = frame.plans || [];
      page.step = frame.step;
      page.log.push(frame.entry);
      takeClock(frame);
      page.canUndo = frame.can_undo;
      page.thinking = frame.thinking;
      if (frame.table) page.table = frame.table;
      page.resultWords = frame.result_words || null;
      page.table.step = frame.step;
      if (page.view && page.view.terminal) rememberSeat();
      if (frame.entry.seat === page.you) settle();
      render();
      // What this step did, told one line at a time when it did several things (a chain, a
      // battle); the board already shows where it ended, and a choice ends the telling.
      if (page.view.terminal) motion.finish();
      else motion.tell(moveTitle(frame.entry), frame.entry.lines, document.getElementById("board"));
      break;
    case "seats":
      if (page.table) {
        page.table = { ...page.table, ...frame.table, step: page.table.step };
        if (page.view) renderHeader();
        if (page.view) renderStatus(page.view, page.you !== null && page.view.current_player === page.you && !page.view.terminal);
      }
      break;
    case "chat":
      page.chat = [...page.chat.slice(-49), frame];
      renderChat();
      break;
    case "rematch":
      // Someone asked for a rematch: every seat and spectator moves to it.
      window.location.assign(rematchUrl(frame.table));
      break;
    case "hint":
      showHint(frame);
      break;
    case "ack":
      settle();
      if (page.view) renderSide();
      break;
    case "error":
      settle();
      document.getElementById("hint").disabled = false;
      toast(frame.message);
      // Whatever went wrong, look at the table again as the server has it.
      if (page.view) send({ type: "sync", id: page.nextId++ });
      break;
    default:
      break;
  }
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  page.socket = socket;
  // Frames are handled one after another even when a drawing module is still loading.
  let chain = Promise.resolve();
  socket.addEventListener("open", () => {
    page.retry = 0;
    document.body.dataset.connected = "true";
    socket.send(JSON.stringify({ type: "hello", token: seatToken() }));
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try { frame = JSON.parse(event.data); } catch (_) { return; }
    chain = chain.then(() => onFrame(frame)).catch((err) => console.error(err));
  });
  socket.addEventListener("close", (event) => {
    document.body.dataset.connected = "false";
    settle();
    if (event.code === 4403 || event.code === 4404) {
      document.getElementById("status").textContent = event.code === 4404 ? "No such table." : "This seat link is not valid.";
      return;
    }
    page.retry = Math.min(page.retry + 1, 6);
    const why = {
      1012: "The server is restarting; reconnecting…",
      4429: "This table has as many watchers as it takes; trying again…",
    }[event.code];
    document.getElementById("status").textContent = why || "Connection lost; reconnecting…";
    setTimeout(connect, 250 * 2 ** page.retry);
  });
}

// -- hints: what the Hard AI would do, and why (only where the table allows them) ------------------
function showHint(frame) {
  document.dispatchEvent(new CustomEvent("robotable:hint", { detail: frame }));
  const box = clear(document.getElementById("hint-box"));
  document.getElementById("hint").disabled = false;
  if (frame.step !== page.step) return; // the table moved on meanwhile
  box.hidden = false;
  box.appendChild(h("div", { class: "actions-title" }, "The Hard AI would consider:"));
  box.appendChild(h("ol", {}, frame.options.map((o) => h("li", {},
    h("b", {}, o.label), ` — about ${Math.round(o.chance * 100)}% to win`, o.why ? `: ${o.why}` : ""))));
  for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
  if (frame.options.length) {
    const best = document.querySelector(`[data-action-index="${frame.options[0].index}"]`);
    if (best) best.classList.add("hinted");
  }
}

document.getElementById("hint").addEventListener("click", () => {
  if (send({ type: "hint", id: page.nextId++ })) {
    const button = document.getElementById("hint");
    button.disabled = true;
    const box = clear(document.getElementById("hint-box"));
    box.hidden = false;
    box.textContent = "Thinking about a hint…";
  }
});

// The coach (coach.js) asks for the live hint once its script has run out.
document.addEventListener("robotable:ask-hint", () => {
  if (page.view && youDecideNow() && page.table.hints) send({ type: "hint", id: page.nextId++ });
});

document.getElementById("undo").addEventListener("click", () => {
  cancelForced();
  motion.finish();
  // Undoing a move taken for you brings its forced choice back: it waits for your click.
  page.autoHeld = true;
  if (send({ type: "undo", id: page.nextId++ })) document.getElementById("undo").disabled = true;
});

// How fast a move is told (slow, normal, fast; kept by the browser), here and on the story.
motion.speedControls(document.getElementById("motion-speed"));
motion.speedControls(document.getElementById("story-speed"));
document.getElementById("story-skip").addEventListener("click", () => motion.finish());

const autoBox = document.getElementById("auto-forced");
autoBox.checked = setting(AUTO_KEY, true);
autoBox.addEventListener("change", () => {
  remember(AUTO_KEY, autoBox.checked);
  if (page.view) render();
});
const soundBox = document.getElementById("turn-sound");
soundBox.checked = setting(SOUND_KEY, false);
soundBox.addEventListener("change", () => {
  remember(SOUND_KEY, soundBox.checked);
  if (soundBox.checked) chime(); // what it will sound like (and the browser allows audio after a click)
});
// A notification only with the player's leave, asked from this button, never on load.
const notifyButton = document.getElementById("turn-notify");
function renderNotify() {
  if (!window.Notification) {
    notifyButton.hidden = true;
  } else if (Notification.permission === "granted") {
    notifyButton.disabled = true;
    notifyButton.textContent = "You will be told when it is your turn (in another tab)";
  } else if (Notification.permission === "denied") {
    notifyButton.disabled = true;
    notifyButton.textContent = "Notifications are blocked for this site";
  }
}
notifyButton.addEventListener("click", async () => {
  try { await Notification.requestPermission(); } catch (_) { /* an old browser: nothing asked */ }
  renderNotify();
});
renderNotify();

PHONE.addEventListener("change", () => { if (page.view) render(); });

// The page keeps room for the phone's bar at its foot, as tall as the bar is (style.css).
const turnBar = document.getElementById("turn-bar");
if (window.ResizeObserver) {
  new ResizeObserver(() => document.body.style.setProperty("--turn-bar-height", `${turnBar.offsetHeight}px`)).observe(turnBar);
}

connect();
